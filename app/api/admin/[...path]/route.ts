import { unknownPath } from '@/lib/api/api-route';

export const { GET, POST, PUT, PATCH, DELETE } = unknownPath();
