import { ACTIVE } from '@/lib/cards/card-status';

export function cardStatusLabel(card: { status: number }): 'active' | 'disabled' {
  return card.status === ACTIVE ? 'active' : 'disabled';
}
