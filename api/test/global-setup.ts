import type { TestProject } from 'vitest/node';
import { makeTemplate } from './database-template.ts';
import type { TestEngine } from './database-template.ts';

/**
 * Once per vitest project and run, before any test file: the migrated database template its test apps copy
 * (test/database-template.ts). The project's engine is in its `env` (vitest.config.ts).
 */
export default async function setup(project: TestProject) {
  const engine = (project.config.env?.ROLLCALL_TEST_ENGINE ?? 'sqlite') as TestEngine;
  const template = await makeTemplate(engine);
  return template.remove;
}
