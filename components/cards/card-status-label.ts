import { ACTIVE } from '@/lib/cards/card-status';

/** The word for a card's state; a cancelled card (only the dashboard ever shows one) or an expired one says so whatever its status. */
export function cardStatusLabel(card: {
  status: number;
  cancelled_at?: Date | string | null;
  expired_at?: Date | string | null;
}): 'active' | 'disabled' | 'cancelled' | 'expired' {
  if (card.cancelled_at) return 'cancelled';
  if (card.expired_at) return 'expired';
  return card.status === ACTIVE ? 'active' : 'disabled';
}
