import { type ReactNode, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { MIN_PANE_PX, useSplit } from './useSplit'

/** The divider's own height, between the panes. */
const HANDLE_PX = 8

type Props = {
  top: ReactNode
  /** The lower pane, given its height in px (0 until the box is measured). */
  bottom: (height: number) => ReactNode
}

/** Two panes stacked in a box, the divider between them draggable (55% and 45% at first, each at least 200 px). */
export function SplitPanes({ top, bottom }: Props) {
  const { t } = useTranslation()
  const box = useRef<HTMLDivElement>(null)
  const { share, total, handle } = useSplit(box)
  const percent = Math.round(share * 100)
  const bottomPx = total ? Math.max(MIN_PANE_PX, total * (1 - share) - HANDLE_PX) : 0
  return (
    <div
      ref={box}
      className="emergency-split"
      style={total ? { height: total } : undefined}
      data-testid="emergency-split"
    >
      <div className="emergency-pane" style={{ height: `calc(${percent}% - ${HANDLE_PX / 2}px)` }}>
        {top}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a movable divider is a focusable separator, which <hr> is not */}
      <div
        className="emergency-divider"
        role="separator"
        aria-orientation="horizontal"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label={t('call.resize')}
        tabIndex={0}
        style={{ height: HANDLE_PX }}
        data-testid="emergency-divider"
        {...handle}
      />
      <div className="emergency-pane emergency-pane-bottom" data-testid="emergency-bottom">
        {bottom(bottomPx)}
      </div>
    </div>
  )
}
