import { ACTIVE } from '@/lib/cards/card-status';

/** The word for a card's state; a cancelled card (only the dashboard ever shows one) says so whatever its status. */
export function cardStatusLabel(card: { status: number; cancelled_at?: Date | string | null }): 'active' | 'disabled' | 'cancelled' {
  if (card.cancelled_at) return 'cancelled';
  return card.status === ACTIVE ? 'active' : 'disabled';
}
