import { isUniqueViolation } from '../../../db/retry.ts';

/** Runs `write`; a unique violation becomes `refusal` (the pre-check lost a race). */
export async function unlessTaken<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw refusal();
    throw err;
  }
}
