/** A person's name as every answer shows it: first and last name, or the e-mail address when both are empty. */
export function fullName(user: { first_name: string | null; last_name: string | null; email: string }): string {
  const name = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim();
  return name || user.email;
}

/** Orders people by full name (then uuid), so lists of them read the same on every engine. */
export const byFullName = (a: { uuid: string; first_name: string | null; last_name: string | null; email: string }, b: typeof a): number =>
  fullName(a).localeCompare(fullName(b)) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);
