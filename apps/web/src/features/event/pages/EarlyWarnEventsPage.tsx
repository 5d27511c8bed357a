import { EventsPage } from '../components/EventsPage'

/** /eventManagement/earlyWarn: 预警事件. */
export function EarlyWarnEventsPage() {
  return <EventsPage kind="warning" />
}
