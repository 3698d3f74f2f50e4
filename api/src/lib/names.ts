/** A person's name as every answer shows it: first and last name, or the e-mail address when both are empty. */
export function fullName(user: { first_name: string | null; last_name: string | null; email: string }): string {
  const name = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim();
  return name || user.email;
}
