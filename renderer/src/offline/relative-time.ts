/** "just now", "5 minutes ago", "3 hours ago", "2 days ago": how old saved data is, in the user's words. */
export function relativeTime(then: number, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return 'just now';
  const units: [number, string][] = [
    [60, 'minute'],
    [60 * 60, 'hour'],
    [24 * 60 * 60, 'day'],
  ];
  let chosen = units[0]!;
  for (const unit of units) if (seconds >= unit[0]) chosen = unit;
  const count = Math.max(1, Math.round(seconds / chosen[0]));
  return `${count} ${chosen[1]}${count === 1 ? '' : 's'} ago`;
}

/** Bytes in the largest unit that keeps the number readable: "812 KB", "1.4 GB". */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** "2 min 5 s", "40 s": a download's time left. */
export function formatDuration(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${whole % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
