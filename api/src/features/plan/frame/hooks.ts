import { isEventWanted } from '../../webhooks/events.ts';
import { resolveAgentName } from './attribution.ts';

/**
 * What the Plan's route registrar (http/plan/) borrows from the features: whether a webhook subscription wants a
 * `tasks.*` event, and the agent X-Service-Agent-Name names. Every Plan feature's feature.ts hands it over.
 */
export const PLAN_HOOKS = { eventWanted: isEventWanted, resolveAgentName };
