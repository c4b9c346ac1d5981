import { receiveWebhookRequest } from '@/lib/api/receive-webhook-request';

export const POST = (req: Request, { params }: { params: Promise<{ endpoint: string }> }) => receiveWebhookRequest(req, params);
