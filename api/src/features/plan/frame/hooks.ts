import { ORGANIZATION_EVENTS } from '../../webhooks/events.ts';
import { resolveAgentName } from './attribution.ts';

/**
 * What the Plan's route registrar (http/plan/) borrows from the features: who receives `tasks.*` organization
 * events (webhook subscriptions and event workflows), and the agent X-Service-Agent-Name names. Every Plan
 * feature's feature.ts hands it over.
 */
export const PLAN_HOOKS = { events: ORGANIZATION_EVENTS, resolveAgentName };
