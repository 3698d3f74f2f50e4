import { badRequest } from '../../../lib/errors.ts';
import { linkedUser } from '../../chat-platform/linked-accounts.ts';
import { buttonClicked, ephemeral, modalSubmitted } from './answers.ts';
import type { DiscordAnswer } from './answers.ts';
import { NOT_LINKED, command, takeOnce } from './commands.ts';
import { interactionNonce, isObject, userOf, verifyInteraction } from './requests.ts';
import type { DiscordDeps } from './requests.ts';

/** Discord's interaction types and the one answer type of a PING. */
const PING = 1;
const APPLICATION_COMMAND = 2;
const MESSAGE_COMPONENT = 3;
const MODAL_SUBMIT = 5;

/**
 * POST /v1/integrations/discord/interactions/: verified (requests.ts) before anything, then by type: a PING (Discord
 * checking the URL) answers PONG; the command, a button or a modal comes from a Discord user, whose linked
 * Rollcall person it is about (a user not linked is told how to link).
 */
export async function interaction(deps: DiscordDeps, raw: Buffer, headers: Record<string, string | string[] | undefined>): Promise<DiscordAnswer> {
  const { connection, body } = await verifyInteraction(deps, raw, headers);
  if (body.type === PING) return { status: 200, body: { type: 1 } };
  const nonce = interactionNonce(body);
  const user = userOf(body);
  if (!user) throw badRequest('malformed_request', 'The interaction names no Discord user.');
  const data = isObject(body.data) ? body.data : {};
  if (body.type === APPLICATION_COMMAND) return command(deps, connection, user, data, nonce);
  if (body.type !== MESSAGE_COMPONENT && body.type !== MODAL_SUBMIT) throw badRequest('malformed_request', `Rollcall takes no interaction of type ${String(body.type).slice(0, 20)}.`);
  const person = await linkedUser(deps.db, connection.organizationUuid, 'discord', user.id);
  if (!person) {
    await takeOnce(deps, nonce);
    return ephemeral(NOT_LINKED);
  }
  return body.type === MESSAGE_COMPONENT ? buttonClicked(deps, person, data, nonce) : modalSubmitted(deps, person, data, nonce);
}
