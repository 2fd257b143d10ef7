/**
 * South African business days, for a payment file's requested execution date: not a Saturday or
 * Sunday, not a public holiday of the Public Holidays Act 36 of 1994 (New Year's Day, Human
 * Rights Day 21 March, Good Friday, Family Day (the Monday after Easter), Freedom Day 27 April,
 * Workers' Day 1 May, Youth Day 16 June, National Women's Day 9 August, Heritage Day 24 September,
 * Day of Reconciliation 16 December, Christmas Day, Day of Goodwill 26 December), nor the Monday
 * after a holiday that falls on a Sunday (section 2(1)). Days are YYYY-MM-DD in Africa/Johannesburg.
 */

const FIXED = ['01-01', '03-21', '04-27', '05-01', '06-16', '08-09', '09-24', '12-16', '12-25', '12-26'];
const DAY_MS = 86_400_000;

const utc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => dayOf(utc(day) + n * DAY_MS);

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, "Meeus/Jones/Butcher"). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The public holidays of a year, with the Monday after each one that falls on a Sunday. */
export function publicHolidays(year: number): Set<string> {
  const easter = easterSunday(year);
  const days = [...FIXED.map((md) => `${year}-${md}`), addDays(easter, -2), addDays(easter, 1)];
  const out = new Set(days);
  for (const d of days) if (new Date(utc(d)).getUTCDay() === 0) out.add(addDays(d, 1));
  return out;
}

export function isBusinessDay(day: string): boolean {
  const weekday = new Date(utc(day)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !publicHolidays(Number(day.slice(0, 4))).has(day);
}

/** The first business day after `day`. */
export function nextBusinessDay(day: string): string {
  let d = addDays(day, 1);
  while (!isBusinessDay(d)) d = addDays(d, 1);
  return d;
}

/** `HH:MM` (24-hour) as minutes after midnight; null when it is not one. */
export function cutoffMinutes(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/**
 * The requested execution date of a file written at `at`: that day in Africa/Johannesburg (UTC+2
 * all year) when it is a business day and the cut-off has not passed; else the next business day.
 */
export function executionDate(at: Date, cutoffMinutesSast: number): string {
  const sast = new Date(at.getTime() + 2 * 3_600_000);
  const today = sast.toISOString().slice(0, 10);
  const minutes = sast.getUTCHours() * 60 + sast.getUTCMinutes();
  return isBusinessDay(today) && minutes < cutoffMinutesSast ? today : nextBusinessDay(today);
}
