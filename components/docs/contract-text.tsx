import type { ReactNode } from 'react';

/**
 * Words taken from openapi.json (summaries, descriptions, error messages): the API's contract, which programs read,
 * so they stay English whatever the reader's language; marked as English for screen readers and the Amharic check.
 */
export function ContractText({ children }: { children: ReactNode }) {
  return (
    <span lang="en" data-contract="">
      {children}
    </span>
  );
}
