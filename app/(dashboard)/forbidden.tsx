import Link from 'next/link';
import { EmptyState } from '@/components/ui/page-header';

/** What forbidden() draws, with the 403 status, at the address the role may not open. */
export default function Forbidden() {
  return (
    <EmptyState title="Your role does not give you access to this page.">
      <Link className="font-medium text-emerald-800 underline" href="/cards">
        Go to cards
      </Link>
    </EmptyState>
  );
}
