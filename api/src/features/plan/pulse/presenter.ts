import { personRef } from '../frame/presenters.ts';
import type { Pulse } from './service.ts';

export function presentPulse(pulse: Pulse) {
  return {
    start_date: pulse.period.from,
    end_date: pulse.period.to,
    totals: pulse.totals,
    states: pulse.states.map(({ state, counts }) => ({ state: state.uuid, board: state.board_uuid, name: state.name, category: state.category, ...counts })),
    owners: pulse.owners.map(({ owner, counts }) => ({ owner: owner ? personRef(owner) : null, ...counts })),
  };
}
