import { ServiceError } from '../errors';

export interface TokenBucketOptions {
  /** Tokens added per second. */
  perSecond: number;
  /** Bucket size: how many requests may arrive at once after a quiet spell. */
  burst: number;
}

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number;
}

const SWEEP_ABOVE = 10_000;

/**
 * Token buckets in this process's memory, one per key. Each app instance keeps
 * its own, so N instances behind a balancer allow up to N times the limit: the
 * fleet's limits are SharedBuckets (shared-buckets.ts).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(readonly opts: TokenBucketOptions) {}

  take(key: string, now = Date.now()): TakeResult {
    const bucket = this.buckets.get(key) ?? { tokens: this.opts.burst, at: now };
    bucket.tokens = this.level(bucket, now);
    bucket.at = now;
    if (!this.buckets.has(key)) {
      if (this.buckets.size >= SWEEP_ABOVE) this.sweep(now);
      this.buckets.set(key, bucket);
    }
    const result = this.verdict(bucket.tokens);
    if (result.ok) bucket.tokens -= 1;
    return result;
  }

  /** Returns a token take() spent on a request that turned out not to count (never past the burst). */
  giveBack(key: string, now = Date.now()): void {
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    bucket.tokens = Math.min(this.opts.burst, this.level(bucket, now) + 1);
    bucket.at = now;
  }

  /** The tokens a bucket holds now, refilled since it was last touched. */
  private level(bucket: Bucket, now: number): number {
    return Math.min(this.opts.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.opts.perSecond);
  }

  private verdict(tokens: number): TakeResult {
    return tokens >= 1 ? { ok: true } : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.opts.perSecond)) };
  }

  /** A bucket that has refilled completely holds no information: forget it. */
  private sweep(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.opts.perSecond >= this.opts.burst) this.buckets.delete(key);
    }
  }
}

export class RateLimitedError extends ServiceError {
  constructor(
    readonly retryAfterSeconds: number,
    detail: string,
  ) {
    super('rate_limited', detail);
  }
}
