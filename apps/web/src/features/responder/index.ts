/** The responder map kept for the emergency call page (/emergency/call), which draws on it. */
export { leaveMap, type ParkedMap, takeParkedMap } from './components/mapHolder'
