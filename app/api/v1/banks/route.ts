import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { BANKS } from '@/lib/providers/banks';

export const GET = apiRoute(async () => ({ message: 'Banks retrieved successfully', data: BANKS }));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
