import * as yup from 'yup';

/** One line, or a list of them (the client repeats --done, --doing, --blocked). */
const lines = () =>
  yup
    .mixed<string | string[]>()
    .test('lines', 'Must be a text or a list of up to 50 texts of at most 2,000 characters.', (value) => {
      if (value === undefined || value === null) return true;
      const list = Array.isArray(value) ? value : [value];
      return list.length <= 50 && list.every((line) => typeof line === 'string' && line.length <= 2000);
    });

/** POST /v1/cli/updates/ `{message? | done?, doing?, blocked?}` (CONTRACT §8): at least one of them, not blank. */
export const standupUpdateSchema = yup
  .object({
    message: yup.string().max(10_000),
    done: lines(),
    doing: lines(),
    blocked: lines(),
  })
  .test('something', 'Give message, done, doing or blocked.', function (value) {
    const filled = (v: unknown) => (Array.isArray(v) ? v.some((line) => String(line).trim() !== '') : typeof v === 'string' && v.trim() !== '');
    if (!value || [value.message, value.done, value.doing, value.blocked].some(filled)) return true;
    return this.createError({ path: 'message', message: 'Give message, done, doing or blocked.' });
  });
export type StandupUpdateInput = yup.InferType<typeof standupUpdateSchema>;
