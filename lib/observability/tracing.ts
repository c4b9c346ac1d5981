import { createRequire } from 'node:module';
import { scrub } from './scrub';

const URL_ATTRIBUTES = ['http.target', 'http.url', 'url.path', 'url.query', 'url.full'];

/**
 * A path or query can hold a card number or a key: every span (ours and Next.js's own, which names the raw
 * target) leaves with them masked, as the request's log line does. Runs before the exporting processor.
 */
const maskUrls = {
  onStart() {},
  onEnd(span: { attributes: Record<string, unknown> }) {
    for (const key of URL_ATTRIBUTES) {
      const value = span.attributes[key];
      if (typeof value === 'string') span.attributes[key] = scrub(value);
    }
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};

/**
 * OpenTelemetry traces of HTTP requests and their PostgreSQL queries, sent by
 * OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT. Unset, none of the SDK is loaded.
 * scripts/start.ts imports this module first, so the instrumentations are in
 * place before anything serves a request or queries the database.
 */
function startTracing(): void {
  const require = createRequire(import.meta.url);
  const { NodeSDK, tracing } = require('@opentelemetry/sdk-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg');
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || 'giftcard-service',
    spanProcessors: [maskUrls, new tracing.BatchSpanProcessor(new OTLPTraceExporter())],
    instrumentations: [new HttpInstrumentation(), new PgInstrumentation()],
  });
  sdk.start();
  // The instrumentations patch a module when it is required; ESM imports of node:http and pg bypass that hook,
  // so they are required once here, which patches the module objects every importer shares.
  require('node:http');
  require('pg');
  (globalThis as unknown as { __giftcardTracing?: { stop(): Promise<void> } }).__giftcardTracing = { stop: () => sdk.shutdown() };
}

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) startTracing();

/** Sends the spans still buffered; nothing to do when tracing is off. */
export async function stopTracing(): Promise<void> {
  await (globalThis as unknown as { __giftcardTracing?: { stop(): Promise<void> } }).__giftcardTracing?.stop();
}
