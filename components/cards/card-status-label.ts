import { ACTIVE } from '@/lib/cards/set-card-status';

export function cardStatusLabel(card: { status: number }): 'active' | 'disabled' {
  return card.status === ACTIVE ? 'active' : 'disabled';
}
