import { describe, expect, it } from 'vitest';
import { PLATFORMS as KINDS } from '../../db/tables.ts';
import { DIRECT_MESSAGE_PLATFORMS } from '../chat-platform/connection.ts';
import { DIRECT_MESSAGE_APPS } from '../chat-platform/app-credentials.ts';
import { PLATFORMS } from './platforms.ts';

/** The list of platform modules and what the layers below it know of them agree. */
describe('chat platforms: one module per platform kind', () => {
  it('has a module for every kind an organization can connect, under its own kind', () => {
    expect(Object.keys(PLATFORMS).sort()).toEqual([...KINDS].sort());
    for (const [kind, platform] of Object.entries(PLATFORMS)) expect(platform.kind).toBe(kind);
  });

  it('names the platforms with direct messages in chat-platform/connection.ts (or, as apps, app-credentials.ts), and those can find a person', () => {
    expect(Object.values(PLATFORMS).filter((p) => p.directMessages).map((p) => p.kind).sort()).toEqual([...DIRECT_MESSAGE_PLATFORMS, ...DIRECT_MESSAGE_APPS].sort());
    for (const platform of Object.values(PLATFORMS)) if (platform.directMessages) expect(typeof platform.findPerson).toBe('function');
  });
});
