import { type RefObject, useEffect, useState } from 'react'

const isAutoplayBlock = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NotAllowedError'

/**
 * Loops the alarm sound from when `playing` turns on until it turns off. When the browser
 * blocks autoplay, `blocked` asks for the click that `start` needs.
 */
export function useAlarmSound(audio: RefObject<HTMLAudioElement | null>, playing: boolean) {
  const [blocked, setBlocked] = useState(false)
  useEffect(() => {
    const el = audio.current
    if (!el || !playing) return
    let current = true
    el.currentTime = 0
    Promise.resolve(el.play()).catch((error: unknown) => {
      if (current && isAutoplayBlock(error)) setBlocked(true)
    })
    return () => {
      current = false
      el.pause()
      setBlocked(false)
    }
  }, [audio, playing])
  return {
    blocked,
    /** Plays from the dialog's click, which the browser counts as the user's gesture. */
    start: () => {
      setBlocked(false)
      void Promise.resolve(audio.current?.play()).catch(() => undefined)
    },
  }
}
