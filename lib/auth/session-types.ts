import type { Actor } from '../actor';
import type { Mode } from '../validation';
import type { Role } from './users';

export interface DashboardSession {
  userId: number;
  email: string;
  businessId: number;
  role: Role;
  mode: Mode;
  actor: Actor;
}
