import type { ExchangeTokenRow, UserRow } from '../../db/tables.ts';
import { EXCHANGE_TOKEN_SECONDS } from '../../auth/exchange-tokens.ts';
import { fullName } from '../users/repository.ts';

/** CONTRACT §4 `{token, expires_in: 300}`, with the instant and the member it acts as. */
export const presentExchangeToken = ({ row, token, member }: { row: ExchangeTokenRow; token: string; member: UserRow }) => ({
  token,
  expires_in: EXCHANGE_TOKEN_SECONDS,
  expires_at: row.expires_at,
  user: { uuid: member.uuid, full_name: fullName(member) },
});
