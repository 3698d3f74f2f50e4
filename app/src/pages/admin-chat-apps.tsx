import { useState } from 'preact/hooks';
import { t } from '../i18n.ts';

/** Microsoft Teams, Google Chat and Discord connect either as an app people answer through, or with an incoming webhook. */
export const APP_PLATFORMS = new Set(['microsoft_teams', 'google_chat', 'discord']);

export type AppFields = Record<string, string>;

/**
 * The fields of a Teams bot (app ID, client secret, tenant ID), a Google Chat app (service-account key file,
 * project number) or a Discord bot (token, application ID, public key), and the choice between that and an
 * incoming webhook. `fields` is null for a webhook.
 */
export function AppConnection({ kind, onChange }: { kind: string; onChange: (fields: AppFields | null) => void }) {
  const [asApp, setAsApp] = useState(true);
  const [fields, setFields] = useState<AppFields>({});
  const set = (name: string, value: string) => {
    const next = { ...fields, [name]: value };
    setFields(next);
    onChange(asApp ? next : null);
  };
  const choose = (app: boolean) => {
    setAsApp(app);
    onChange(app ? fields : null);
  };
  const input = (name: string, label: string, secret = false) => {
    const props = { id: `chat-${name}`, required: true, autoComplete: 'off', value: fields[name] ?? '', onInput: (e: Event) => set(name, (e.target as HTMLInputElement).value) };
    return (
      <>
        <label for={`chat-${name}`}>{label}</label>
        {secret ? <input type="password" {...props} /> : <input type="text" {...props} />}
      </>
    );
  };
  const teams = kind === 'microsoft_teams';
  const discord = kind === 'discord';
  return (
    <>
      <fieldset class="chat-mode">
        <legend>{t('chat.as')}</legend>
        <label><input type="radio" name="chat-mode" checked={asApp} onChange={() => choose(true)} /> {teams ? t('chat.as.bot') : discord ? t('chat.as.discord') : t('chat.as.app')}</label>
        <label><input type="radio" name="chat-mode" checked={!asApp} onChange={() => choose(false)} /> {t('chat.as.webhook')}</label>
      </fieldset>
      {asApp && teams ? (
        <>
          {input('app_id', t('chat.teams.app_id'))}
          {input('app_password', t('chat.teams.app_password'), true)}
          {input('tenant_id', t('chat.teams.tenant_id'))}
        </>
      ) : null}
      {asApp && discord ? (
        <>
          {input('bot_token', t('chat.discord.bot_token'), true)}
          {input('application_id', t('chat.discord.application_id'))}
          {input('public_key', t('chat.discord.public_key'))}
        </>
      ) : null}
      {asApp && !teams && !discord ? (
        <>
          <label for="chat-service_account">{t('chat.google.service_account')}</label>
          <textarea id="chat-service_account" required rows={4} autoComplete="off" spellcheck={false} value={fields.service_account ?? ''} onInput={(e) => set('service_account', (e.target as HTMLTextAreaElement).value)} />
          {input('project_number', t('chat.google.project_number'))}
        </>
      ) : null}
    </>
  );
}
