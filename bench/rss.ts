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

/** CPU seconds a process has used, from /proc/<pid>/stat (utime + stime, in clock ticks of 1/100 s). */
export function cpuSeconds(pid: number | string): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
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
