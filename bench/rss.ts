import { readFileSync } from 'node:fs';

/** Resident set size of a process in MiB, from /proc (`VmRSS`, or `VmHWM` for the peak so far). */
export function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `everyMs` and keeps the peak since the last `reset()`. */
export class RssSampler {
  private peak = 0;
  private timer: NodeJS.Timeout;

  constructor(private readonly pid: number, everyMs = 250) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  private sample() {
    const now = rssMiB(this.pid);
    if (now !== null && now > this.peak) this.peak = now;
  }

  /** The peak since the last reset, then starts a new window. */
  reset(): number {
    this.sample();
    const peak = this.peak;
    this.peak = 0;
    return peak;
  }

  /** The kernel's own high-water mark over the whole life of the process. */
  lifetimePeak(): number | null {
    return rssMiB(this.pid, 'VmHWM');
  }

  stop() {
    clearInterval(this.timer);
  }
}
