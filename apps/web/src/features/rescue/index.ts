/** The emergency page's rescue tab (急救事件), which the call feature's page shows beside its calls. */
export { RescueTab, type RescueTabProps } from './components/RescueTab'
