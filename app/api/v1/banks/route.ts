import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { payoutContracts } from '@/lib/api/contracts/payouts';
import { BANKS } from '@/lib/providers/banks';

export const GET = apiRoute(payoutContracts.listBanks, async () => ({ data: BANKS }));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
