/**
 * What the OpenAPI document describes: every operation, the shared schemas and the tag descriptions. Loaded
 * by the app on the first GET /v1/openapi.json only (the descriptions are a good part of the source text, and
 * every TypeScript file loaded costs memory for type stripping).
 */
import { buildOpenApi } from './document.ts';
import type { Operation } from './types.ts';
import { metaOperations, metaSchemas } from '../features/meta/openapi.ts';
import { meOperations } from '../features/me/openapi.ts';
import { organizationOperations } from '../features/organization/openapi.ts';
import { apiKeyOperations } from '../features/api-keys/openapi.ts';
import { userOperations, userSchemas } from '../features/users/openapi.ts';
import { teamOperations, teamSchemas } from '../features/teams/openapi.ts';
import { invitationOperations, invitationSchemas } from '../features/invitations/openapi.ts';
import { checkinOperations, checkinSchemas } from '../features/checkins/openapi.ts';
import { templateOperations, templateSchemas } from '../features/templates/openapi.ts';
import { moodOperations, moodSchemas } from '../features/mood/openapi.ts';
import { deliveryOperations, deliverySchemas } from '../features/deliveries/openapi.ts';
import { webhookOperations, webhookSchemas } from '../features/webhooks/openapi.ts';
import { emailOperations } from '../features/email/openapi.ts';
import { inboundOperations } from '../features/inbound/openapi.ts';
import { chatOperations, chatSchemas } from '../features/chat/openapi.ts';
import { agentOperations, agentSchemas, agentTagDescription } from '../features/agents/openapi.ts';
import { planDescription, planOperations, planSchemas } from '../features/plan/openapi.ts';

/** Every documented operation; the OpenAPI test checks this list against the routers' routes. */
export const operations: Operation[] = [
  ...metaOperations,
  ...meOperations,
  ...organizationOperations,
  ...apiKeyOperations,
  // People, teams and check-ins (issue 4).
  ...userOperations,
  ...invitationOperations,
  ...teamOperations,
  ...checkinOperations,
  ...templateOperations,
  ...moodOperations,
  // Delivery (issue 5).
  ...deliveryOperations,
  ...webhookOperations,
  ...emailOperations,
  ...inboundOperations,
  ...chatOperations,
  // Agents (issue 6).
  ...agentOperations,
  ...planOperations(),
];
export const schemas = {
  ...metaSchemas,
  // People, teams and check-ins (issue 4).
  ...userSchemas,
  ...invitationSchemas,
  ...teamSchemas,
  ...checkinSchemas,
  ...templateSchemas,
  ...moodSchemas,
  // Delivery (issue 5).
  ...deliverySchemas,
  ...webhookSchemas,
  ...chatSchemas,
  // Agents (issue 6).
  ...agentSchemas,
  ...planSchemas,
};
/** Tag descriptions of the OpenAPI document. */
export const tags = [{ name: 'Agents', description: agentTagDescription }];

export function buildDocument(publicUrl: string | null): unknown {
  return buildOpenApi(operations, schemas, `${publicUrl ?? ''}/`, tags, planDescription());
}
