import { EventsPage } from '../components/EventsPage'

/** /eventManagement/offline: 离线事件. */
export function OfflineEventsPage() {
  return <EventsPage kind="offline" />
}
