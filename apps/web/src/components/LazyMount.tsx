import { type ReactNode, Suspense, useState } from 'react'

/**
 * Mounts lazily loaded children the first time `when` holds and keeps them mounted, so a dialog
 * loads with its first opening yet still animates its closing.
 */
export function LazyMount({ when, children }: { when: boolean; children: ReactNode }) {
  const [mounted, setMounted] = useState(when)
  if (when && !mounted) setMounted(true)
  return mounted ? <Suspense fallback={null}>{children}</Suspense> : null
}
