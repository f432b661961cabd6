/**
 * The change feed's window that shows a feed's own numbers: its two snapshot days apart,
 * as `days-back` (the view's flag, and the service's 1–30). An alert's or a digest's
 * "Change feed" button opens it there, so the view a reader lands on counts the same
 * pages and the same sentiment values as the message they clicked on.
 */
import { calendarDayOf, dayNumber } from '../utc-days.js';

/** `{ 'days-back': N }` for a window of 1–30 days between the two days; none otherwise. */
export function changeFeedWindow(
  previousDate: string | null | undefined,
  currentDate: string | null | undefined,
): Record<string, string> {
  const [from, to] = [calendarDayOf(previousDate), calendarDayOf(currentDate)];
  if (from === null || to === null) return {};
  const days = dayNumber(to) - dayNumber(from);
  return days >= 1 && days <= 30 ? { 'days-back': String(days) } : {};
}
