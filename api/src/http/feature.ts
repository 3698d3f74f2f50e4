import type Router from '@koa/router';
import type { InboundHandler } from '../inbound/registry.ts';
import type { DeliveryPart } from '../outbound/types.ts';
import type { Deps } from './deps.ts';
import type { Middlewares } from './middlewares.ts';
import type { Operation } from './openapi/types.ts';
import type { JsonSchema } from './openapi/yup-to-json-schema.ts';

/**
 * What a feature declares, once, in its folder's feature.ts; features/index.ts lists them all, and the app,
 * the OpenAPI catalogue, the delivery wiring and the job scheduler read that list. Adding a feature touches
 * its folder, its migrations and one line of features/index.ts.
 */
export interface Feature {
  /** Its folder under features/. */
  name: string;
  /** Its routers, in routing order (features/index.ts gives the order between features). */
  routers(deps: Deps, middlewares: Middlewares): Router[];
  /** Its part of the OpenAPI document: `() => import('./openapi.ts')`, loaded on the first GET /v1/openapi.json only. */
  openapi?(): Promise<OpenApiPart>;
  /** Senders of its delivery channels, hooks on their outcomes, work before each delivery round. */
  delivery?(deps: Deps): DeliveryPart;
  /** Routes for received e-mail: the first that takes a message wins, in the list's order. */
  inbound?(deps: Deps): Record<string, InboundHandler>;
  /** Background jobs (cron, UTC); each runs alone and is callable from a test. */
  jobs?: Job[];
  /**
   * Paths whose request bodies its routes read themselves (http/raw-body.ts), left alone by the JSON body parser:
   * requests a platform signs over their exact bytes (Slack's request URLs).
   */
  rawBodyPaths?: readonly string[];
}

/** An openapi.ts module: its operations, the component schemas they name, and tag descriptions. */
export interface OpenApiPart {
  operations: Operation[];
  schemas?: Record<string, JsonSchema>;
  tags?: { name: string; description: string }[];
}

export interface Job {
  name: string;
  /** node-cron schedule, in UTC. */
  schedule: string;
  run(deps: Deps): Promise<unknown>;
}
