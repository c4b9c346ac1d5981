import { randomInt } from 'node:crypto';
import { expect, inject } from 'vitest';
import { createGiftCardClient } from '../lib/client/create-gift-card-client';
import type { CreateCardInput } from '../lib/client/types';
import { createDb, type Db, type Tx } from '../lib/db/client';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A raw body string, sent as is (for malformed JSON tests). */
  raw?: string;
}

/** Real HTTP to the test server, with a key (or none). */
export function apiClient(key?: string, baseUrl = inject('baseUrl')) {
  const call = async (method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (key) headers.authorization = `Bearer ${key}`;
    let payload: string | undefined = opts.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    get: (path: string, opts?: RequestOptions) => call('GET', path, undefined, opts),
    post: (path: string, body?: unknown, opts?: RequestOptions) => call('POST', path, body, opts),
    put: (path: string, body?: unknown, opts?: RequestOptions) => call('PUT', path, body, opts),
    patch: (path: string, body?: unknown, opts?: RequestOptions) => call('PATCH', path, body, opts),
    delete: (path: string, opts?: RequestOptions) => call('DELETE', path, undefined, opts),
    /** The typed client of lib/client with the same key, so every run exercises it. */
    typed: createGiftCardClient({ baseUrl: `${baseUrl}/api/v1`, apiKey: key ?? '' }),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

export const adminClient = () => apiClient(inject('adminToken'));

export interface TestBusiness {
  id: number;
  merchant_id: string;
  name: string;
  keys: { test: string; live: string };
  test: ApiClient;
  live: ApiClient;
}

/** A fresh business made through the back office API, with clients for both keys. */
export async function createTestBusiness(name = 'Test business'): Promise<TestBusiness> {
  const res = await adminClient().post('/api/admin/businesses', { name });
  if (res.status !== 201) throw new Error(`could not create business: ${res.status} ${JSON.stringify(res.body)}`);
  const d = res.body.data;
  return { id: d.id, merchant_id: d.merchant_id, name: d.name, keys: d.api_keys, test: apiClient(d.api_keys.test), live: apiClient(d.api_keys.live) };
}

/** A valid Ethiopian mobile number nobody has used yet (90 million to choose from). */
export function randomPhone(): string {
  return `+2519${randomInt(1, 10)}${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
}

let shared: Db | undefined;
/** A direct handle on the tests' PostgreSQL, for checks the API does not show (ledger, outbox). */
export function testDb(): Db {
  shared ??= createDb(inject('databaseUrl'), 4).db;
  return shared;
}

export async function createCard(client: ApiClient, currency = 'ETB', phone = randomPhone()) {
  const res = await client.typed.createCard({
    phone_number: phone,
    currency: currency as CreateCardInput['currency'],
    first_name: 'Test',
    last_name: 'Holder',
  });
  if (res.httpStatus !== 201 || res.status !== 'success') throw new Error(`could not create card: ${res.httpStatus} ${JSON.stringify(res)}`);
  return res.data;
}

/** Polls until check returns a value, instead of sleeping a guessed time. */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

class Rollback extends Error {}

/** Runs fn in a transaction that is always rolled back: test files share the database, and some check the whole ledger. */
export async function rolledBack(fn: (tx: Tx) => Promise<void>): Promise<void> {
  await expect(
    testDb().transaction(async (tx) => {
      await fn(tx);
      throw new Rollback();
    }),
  ).rejects.toBeInstanceOf(Rollback);
}
