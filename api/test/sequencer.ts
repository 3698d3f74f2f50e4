import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/**
 * The order the API suite's files start in. Vitest's own order (a project's files together; the longest last
 * time first, or the largest file on a fresh clone) with, within each project, the files that start processes or
 * a browser (test/*.test.ts, *.browser.test.ts) moved to the front: they take the longest (docs walk-throughs,
 * crash tests, the Dockerfile replay), and one of them started last would keep the run going long after the
 * other worker ran out of files. A project's files stay together so each worker process runs them one after
 * another (vitest.config.ts, isolate: false).
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slow = (spec: TestSpecification) => /\/api\/test\/[^/]+\.test\.ts$|\.browser\.test\.ts$/.test(spec.moduleId);
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    return projects.flatMap((name) => {
      const own = sorted.filter((spec) => spec.project.name === name);
      return [...own.filter(slow), ...own.filter((spec) => !slow(spec))];
    });
  }
}
