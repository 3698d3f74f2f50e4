/** One firing of a scheduled job, claimed by the process that ran it (jobs/index.ts). */
export interface JobFiringRow {
  job: string;
  /** The scheduled minute, ISO 8601 UTC. */
  fired_at: string;
  claimed_by: string;
  started_at: string;
  finished_at: string | null;
  error: string | null;
}
