/** A decorative heartbeat trace for the sign-in background. */
export function EcgLine({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 600 120" preserveAspectRatio="none" aria-hidden="true">
      <path
        d="M0 60 H170 L190 60 L205 30 L220 95 L240 10 L260 110 L275 60 H330 L345 48 L360 60 H600"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  )
}
