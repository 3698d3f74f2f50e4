/** Check-in schedules name weekdays two ways (CONTRACT §12); the stored form is ISO weekdays, comma-separated. */

/** `schedule.days` counts 0 = Sunday … 6 = Saturday; `frequency_on_days` is ISO (7 = Sunday). */
export const sundayZeroToIso = (days: number[]): number[] => [...new Set(days.map((d) => (d === 0 ? 7 : d)))].sort((a, b) => a - b);
export const isoToSundayZero = (days: number[]): number[] => [...new Set(days.map((d) => (d === 7 ? 0 : d)))].sort((a, b) => a - b);

export const parseDays = (stored: string): number[] => (stored ? stored.split(',').map(Number) : []);
export const formatDays = (isoDays: number[]): string => isoDays.join(',');
