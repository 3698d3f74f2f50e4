import cron from 'node-cron';
import type { Executor } from '../../db/connection.ts';
import { ValidationFailed, badRequest } from '../../lib/errors.ts';
import { isValidTimeZone } from '../../lib/time.ts';
import type { Actor } from '../../auth/credentials.ts';
import { refuseUrl } from '../../outbound/address-policy.ts';
import type { Resolver } from '../../outbound/address-policy.ts';
import { platformName } from '../chat-platform/connection.ts';
import { EVENTS, isKnownEvent } from '../../outbox/events.ts';
import { TemplateError, checkTemplate } from './template.ts';
import type { StoredAction, TriggerConfig } from './repository.ts';
import type { ActionInput, ActionType, TriggerConfigInput, TriggerType } from './schema.ts';

type Problems = Record<string, string[]>;

const FIELDS: Record<ActionType, string[]> = {
  send_message: ['message', 'target_users', 'target_channels', 'target_teams'],
  send_email: ['to', 'subject', 'body_html'],
  http_request: ['url', 'method', 'headers', 'body', 'content_type'],
};
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
/** Headers Rollcall sets itself (signing, length, framing) or that no request of ours may carry. */
const RESERVED_HEADERS = /^(host|content-length|transfer-encoding|connection|upgrade|te|trailer|keep-alive|proxy-.*|webhook-.*|content-type)$/i;

function template(problems: Problems, path: string, value: string | undefined): void {
  if (value === undefined) return;
  try {
    checkTemplate(value);
  } catch (err) {
    if (err instanceof TemplateError) problems[path] = [err.message];
    else throw err;
  }
}

/** Validates and normalizes `trigger_config` for `type`; the organization's time zone is a schedule's default. */
export function triggerConfig(type: TriggerType, input: TriggerConfigInput | undefined, defaultZone: string, problems: Problems): TriggerConfig {
  const config = input ?? {};
  const allowed = type === 'schedule' ? ['cron', 'timezone'] : type === 'event' ? ['event', 'match'] : [];
  for (const key of Object.keys(config)) {
    if (!allowed.includes(key)) problems[`trigger_config.${key}`] = [`Not a setting of ${type} workflows.`];
  }
  if (type === 'schedule') {
    const expression = config.cron?.trim() ?? '';
    if (!expression) problems['trigger_config.cron'] = ['A schedule needs a cron expression, for example "0 9 * * 1-5".'];
    else if (expression.split(/\s+/).length !== 5 || !cron.validate(expression)) {
      problems['trigger_config.cron'] = ['Must be a cron expression of five fields: minute hour day-of-month month day-of-week.'];
    }
    const timezone = config.timezone ?? defaultZone;
    if (!isValidTimeZone(timezone)) problems['trigger_config.timezone'] = ['Must be an IANA time zone, for example Europe/Madrid.'];
    return { cron: expression, timezone };
  }
  if (type === 'event') {
    const event = config.event ?? '';
    const known = event.endsWith('.*') ? isKnownEvent(event) || EVENTS.some((name) => name.startsWith(event.slice(0, -1))) : isKnownEvent(event);
    if (!event) problems['trigger_config.event'] = ['An event workflow needs an event, for example kudos.posted.'];
    else if (!known) problems['trigger_config.event'] = ['Unknown event: use an organization event name (as webhook subscriptions do) or a prefix with .*.'];
    const scalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);
    const entries = Object.entries(config.match ?? {});
    for (const [key, value] of entries) {
      if (!scalar(value)) problems[`trigger_config.match.${key}`] = ['Match a top-level value of the event: a string, number, boolean or null.'];
    }
    // fromEntries keeps every key its own (`match[key] = …` with a `__proto__` key would set a prototype).
    const match = Object.fromEntries(entries.filter(([, value]) => scalar(value))) as Record<string, string | number | boolean | null>;
    return { event, ...(Object.keys(match).length ? { match } : {}) };
  }
  return {};
}

export interface UrlPolicy {
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** Validates actions for the organization; returns them as stored and the header values to seal. */
export async function actionsOf(db: Executor, actor: Actor, inputs: ActionInput[], policy: UrlPolicy, problems: Problems) {
  const actions: StoredAction[] = [];
  const headers: Record<string, Record<string, string>> = {};
  const org = actor.organization.uuid;
  for (const [i, input] of inputs.entries()) {
    const at = `actions.${i}`;
    for (const key of Object.keys(input)) {
      if (key !== 'type' && !FIELDS[input.type].includes(key)) problems[`${at}.${key}`] = [`Not a field of ${input.type} actions.`];
    }
    if (input.type === 'send_message') {
      if (!input.message) problems[`${at}.message`] = ['This field is required.'];
      template(problems, `${at}.message`, input.message);
      const users = [...new Set(input.target_users ?? [])];
      const teams = [...new Set(input.target_teams ?? [])];
      const channels = [...new Set(input.target_channels ?? [])];
      if (users.length + teams.length + channels.length === 0) problems[`${at}.target_users`] = ['Give at least one target: target_users, target_channels or target_teams.'];
      if (users.length) {
        const found = new Set((await db('users').where('organization_uuid', org).whereIn('uuid', users).select('uuid')).map((r: { uuid: string }) => r.uuid));
        const missing = users.filter((u) => !found.has(u));
        if (missing.length) problems[`${at}.target_users`] = [`No user with this id in your organization: ${missing.join(', ')}.`];
      }
      if (teams.length) {
        const found = new Set((await db('teams').where('organization_uuid', org).whereIn('uuid', teams).select('uuid')).map((r: { uuid: string }) => r.uuid));
        const missing = teams.filter((u) => !found.has(u));
        if (missing.length) problems[`${at}.target_teams`] = [`No team with this id in your organization: ${missing.join(', ')}.`];
      }
      actions.push({ type: 'send_message', message: input.message ?? '', target_users: users, target_channels: channels, target_teams: teams });
    } else if (input.type === 'send_email') {
      for (const field of ['to', 'subject', 'body_html'] as const) if (input[field] === undefined) problems[`${at}.${field}`] = ['This field is required.'];
      (input.to ?? []).forEach((address, j) => {
        if (address.includes('{{')) template(problems, `${at}.to.${j}`, address);
        else if (!EMAIL.test(address.trim())) problems[`${at}.to.${j}`] = ['Enter a valid e-mail address (or a template such as {{payload.email}}).'];
      });
      template(problems, `${at}.subject`, input.subject);
      template(problems, `${at}.body_html`, input.body_html);
      actions.push({ type: 'send_email', to: (input.to ?? []).map((a) => a.trim()), subject: input.subject ?? '', body_html: input.body_html ?? '' });
    } else {
      if (!input.url) problems[`${at}.url`] = ['This field is required.'];
      else {
        const refusal = await refuseUrl(input.url, policy);
        if (refusal) problems[`${at}.url`] = [refusal];
      }
      const method = input.method ?? 'POST';
      if (method === 'GET' && input.body !== undefined) problems[`${at}.body`] = ['A GET request has no body.'];
      template(problems, `${at}.body`, input.body);
      const entries = Object.entries(input.headers ?? {});
      if (entries.length > 20) problems[`${at}.headers`] = ['At most 20 headers.'];
      const accepted: [string, string][] = [];
      for (const [name, value] of entries) {
        if (!HEADER_NAME.test(name) || RESERVED_HEADERS.test(name)) problems[`${at}.headers.${name}`] = ['Not a header an action can set.'];
        else if (typeof value !== 'string' || value.length > 4000 || /[\r\n\0]/.test(value)) problems[`${at}.headers.${name}`] = ['A header value is a string of at most 4000 characters on one line.'];
        else accepted.push([name, value]);
      }
      const sealed: Record<string, string> = Object.fromEntries(accepted);
      if (Object.keys(sealed).length) headers[String(i)] = sealed;
      const contentType = input.content_type ?? 'application/json';
      if (/[\r\n]/.test(contentType)) problems[`${at}.content_type`] = ['A content type is one line.'];
      actions.push({ type: 'http_request', url: input.url ?? '', method, content_type: contentType, body: input.body ?? null, header_names: Object.keys(sealed) });
    }
  }
  return { actions, headers };
}

/** send_message actions need a connected chat platform (400 platform_not_connected, as POST /v1/send-message/). */
export async function requirePlatformFor(db: Executor, actor: Actor, actions: StoredAction[]): Promise<void> {
  if (!actions.some((a) => a.type === 'send_message')) return;
  if (!(await platformName(db, actor.organization.uuid))) {
    throw badRequest('platform_not_connected', 'No chat platform is connected. Connect Slack, Microsoft Teams, Discord or Google Chat in PATCH /v1/organization/ (platform).');
  }
}

export function throwProblems(problems: Problems): void {
  if (Object.keys(problems).length) throw new ValidationFailed(problems);
}
