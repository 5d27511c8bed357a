import { useSyncExternalStore } from 'react'
import { type Session, sessionStore } from './session'

/** The signed-in member, re-rendering on sign-in, switch and sign-out. */
export function useSession(): Session {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get)
}
