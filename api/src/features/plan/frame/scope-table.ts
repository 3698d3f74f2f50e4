import type { PlanOperation } from './routes.ts';

/**
 * The scope table of the Plan, generated from the routes that are served (one source): printed in the OpenAPI
 * document's description and in docs/plan.md (a test checks the docs hold exactly this table).
 */
export function scopeTable(operations: PlanOperation[]): string {
  const rows = operations.map((op) => {
    const notes = [
      op.betaExempt ? 'never 402' : null,
      op.person ? 'person only' : null,
      ...Object.entries(op.personQuery).map(([name, value]) => `${name}=${value} needs a person`),
      op.destructive ? 'dry_run' : null,
      op.idempotency === 'required' ? 'Idempotency-Key required' : null,
    ].filter(Boolean);
    return `| ${op.method.toUpperCase()} | \`${op.path.replace(/:(\w+)/g, '{$1}')}\` | ${op.scope} | ${op.ceiling} | ${notes.join(', ')} |`;
  });
  return ['| Method | Path | Scope | Minute ceiling | Notes |', '|---|---|---|---|---|', ...rows].join('\n');
}
