import * as yup from 'yup';

/** Body fields several Plan resources share. Names are trimmed by the services; a blank one is refused here. */
export const nameField = (max: number) => yup.string().max(max).matches(/\S/, { message: 'Must not be blank.', excludeEmptyString: true });
export const descriptionField = () => yup.string().max(50_000);
/** How a project (or a goal, declared) is doing: a project update's health, a project's, a goal's status. */
export const HEALTHS = ['on_track', 'at_risk', 'off_track'] as const;
export const colorField = () => yup.string().matches(/^#[0-9A-Fa-f]{6}$/, { message: 'Must be a colour like #5E6AD2.' });
