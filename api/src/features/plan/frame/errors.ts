import { forbidden } from '../../../lib/errors.ts';

/** Not in the spec's catalogue (it names no role refusal): a member who does not manage the board or project. */
export const boardManagerRequired = () => forbidden('board_manager_required', 'Only a manager of this board or an organization admin can do this.');
export const projectManagerRequired = () => forbidden('project_manager_required', 'Only a manager of this project or an organization admin can do this.');
