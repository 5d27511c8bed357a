/** A suggestion answer of Tencent Location Service, as its WebService API sends it (test fixture). */
export const tencentSuggestion = {
  status: 0,
  message: 'query ok',
  count: 100,
  request_id: 'f0b0c6a4e1d34c1a9a1f2e0d6c5b4a39',
  data: [
    {
      id: '3752478768254748521',
      title: '天安门',
      address: '北京市东城区东长安街',
      category: '旅游景点:风景名胜',
      type: 0,
      location: { lat: 39.908802, lng: 116.397502 },
      adcode: 110101,
      province: '北京市',
      city: '北京市',
      district: '东城区',
    },
    {
      id: '10148829543335466495',
      title: '天安门广场',
      address: '北京市东城区东长安街',
      category: '旅游景点:广场',
      type: 0,
      location: { lat: 39.903744, lng: 116.397827 },
      adcode: 110101,
      province: '北京市',
      city: '北京市',
      district: '东城区',
    },
  ],
}
/** A reverse-geocoding answer (test fixture). */
export const tencentGeocoder = {
  status: 0,
  message: 'Success',
  request_id: '2b4e5c1d0f9a4b7e8c6d5a3b2c1d0e9f',
  result: {
    location: { lat: 39.984154, lng: 116.30749 },
    address: '北京市海淀区北四环西路66号',
    formatted_addresses: { recommend: '海淀区中关村中国技术交易大厦', rough: '海淀区中关村' },
    address_component: {
      nation: '中国',
      province: '北京市',
      city: '北京市',
      district: '海淀区',
      street: '北四环西路',
      street_number: '北四环西路66号',
    },
    ad_info: {
      nation_code: '156',
      adcode: '110108',
      phone_area_code: '010',
      city_code: '156110000',
      name: '中国,北京市,北京市,海淀区',
      location: { lat: 39.959912, lng: 116.298056 },
      nation: '中国',
      province: '北京市',
      city: '北京市',
      district: '海淀区',
    },
  },
}

/** A fetch that records the URLs asked for and answers with `answer`. */
export function fakeFetch(answer: unknown, seen: URL[] = []): typeof fetch {
  return (async (url: string | URL) => {
    seen.push(new URL(String(url)))
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } })
  }) as typeof fetch
}
