import { yup } from '../../../http/validation.ts';

/** Body fields several Plan resources share. Names are trimmed by the services; a blank one is refused here. */
export const nameField = (max: number) => yup.string().max(max).matches(/\S/, { message: 'Must not be blank.', excludeEmptyString: true });
export const descriptionField = () => yup.string().max(50_000);
export const colorField = () => yup.string().matches(/^#[0-9A-Fa-f]{6}$/, { message: 'Must be a colour like #5E6AD2.' });

/** A calendar date, YYYY-MM-DD, that exists (2026-02-30 does not). */
export const dateField = () =>
  yup
    .string()
    .matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'Must be a date as YYYY-MM-DD.' })
    .test('calendar-date', 'Must be a date that exists.', (value) => value === undefined || value === null || isCalendarDate(value));

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
