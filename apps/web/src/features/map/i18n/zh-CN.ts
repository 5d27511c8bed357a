/** Texts of the console's map (components/MapView, components/MapPicker): zh-CN. */
export const mapZhCN = {
  map: {
    loading: '地图加载中…',
    unavailable: '当前浏览器无法显示地图，请直接输入经纬度',
    pickHint: '点击地图或拖动标记选择位置',
    manualAddress: '当前地图无法根据位置解析地址，请手动输入地址并选择所在地区',
    lat: '纬度',
    lon: '经度',
    zoomIn: '放大',
    zoomOut: '缩小',
  },
}
