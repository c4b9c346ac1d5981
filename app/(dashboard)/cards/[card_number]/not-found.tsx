import Link from 'next/link';
import { EmptyState } from '@/components/ui/page-header';

export default function CardNotFound() {
  return (
    <EmptyState title="Gift card not found">
      No card with this number belongs to your business in this mode.{' '}
      <Link href="/cards" className="underline underline-offset-2">
        Back to cards
      </Link>
    </EmptyState>
  );
}
