import type { PlanRoutes } from '../../../http/plan/registrar.ts';
import { channelLabel, chatAccess } from '../channels/service.ts';
import { checkChannel } from '../notifications/routing.ts';
import { presentReport, presentRun } from './presenter.ts';
import { createReportSchema, reportChannelOf, updateReportSchema } from './schema.ts';
import { REPORT_LIMIT, createReport, deleteReport, getReport, listReports, previewReport, runReportNow, updateReport, listReportRuns } from './service.ts';

/** The channel the body names, looked up on the platform before the write (a malformed one is invalid_schedule: the service says so). */
const channelOf = (body: { channel?: unknown }) => reportChannelOf(body.channel) || undefined;

export function reportRoutes(plan: PlanRoutes): void {
  const r = plan.tagged('Plan: scheduled reports');
  const base = '/v1/plan/reports/';
  r.list({ path: base, summary: 'The organization\'s scheduled reports', item: 'PlanReportSchedule' }, async (call) => {
    const { count, rows } = await listReports(call, call.page);
    return { count, results: rows.map(presentReport) };
  });
  r.write(
    {
      method: 'post', path: base, body: createReportSchema, status: 201, response: 'PlanReportSchedule',
      summary: `Schedule a report (at most ${REPORT_LIMIT}: report_schedules_limit_reached); 400 invalid_schedule names the field in extra.parameter`,
      prepare: (call) => checkChannel(call, chatAccess(call.deps), channelOf(call.body), { email: false }),
    },
    async (call) => presentReport(await createReport(call, call.body)),
  );
  r.read({ path: `${base}:report/`, summary: 'One scheduled report', response: 'PlanReportSchedule' }, async (call) => presentReport(await getReport(call, call.params.report)));
  r.write(
    {
      method: 'patch', path: `${base}:report/`, body: updateReportSchema, response: 'PlanReportSchedule', summary: 'Change a scheduled report (its next run is recomputed)',
      prepare: (call) => checkChannel(call, chatAccess(call.deps), channelOf(call.body), { email: false }),
    },
    async (call) => presentReport(await updateReport(call, call.params.report, call.body)),
  );
  r.write({ method: 'delete', path: `${base}:report/`, summary: 'Delete a scheduled report', status: 204 }, (call) => deleteReport(call, call.params.report));
  r.read({ path: `${base}:report/preview/`, summary: 'The report as it would be sent now (nothing is sent)', response: 'PlanReport' }, async (call) =>
    previewReport(call.db, await getReport(call, call.params.report), call.now),
  );
  r.list({ path: `${base}:report/runs/`, summary: 'The report\'s runs, newest first (by its schedule or asked for)', item: 'PlanReportRun' }, async (call) => {
    const { count, rows } = await listReportRuns(call, call.params.report, call.page);
    return { count, results: rows.map(presentRun) };
  });
  r.write(
    {
      method: 'post', path: `${base}:report/run/`, aliases: [`${base}:report/send-test/`], destructive: true,
      summary: 'Send the report now (its schedule is unchanged); ?dry_run=true builds it and sends nothing (and names its channel and recipients at the top)',
      response: {
        type: 'object',
        properties: {
          report: { $ref: '#/components/schemas/PlanReport' }, deliveries: { type: 'integer' }, sent: { type: 'boolean', description: 'whether anything was handed to the outbox' },
          channel: { type: ['object', 'null'], properties: { external_id: { type: 'string' }, name: { type: 'string' } } }, email_recipients: { type: 'array', items: { type: 'string' } },
        },
      },
      prepare: async (call) => {
        const { channel } = presentReport(await getReport(call, call.params.report));
        return channel ? channelLabel(call, chatAccess(call.deps), channel) : null;
      },
      preview: (result) => ({ channel: result.channel, email_recipients: result.email_recipients }),
    },
    async (call) => {
      const run = await runReportNow(call, call.params.report);
      const { email_recipients } = presentReport(await getReport(call, call.params.report));
      return { ...run, sent: run.deliveries > 0, channel: call.prepared, email_recipients: email_recipients ?? [] };
    },
  );
}
