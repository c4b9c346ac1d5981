import { receiveWebhookRequest } from '@/lib/webhooks/receive-webhook-request';

export const POST = (req: Request, { params }: { params: Promise<{ endpoint: string }> }) => receiveWebhookRequest(req, params);
