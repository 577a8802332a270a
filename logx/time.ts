// Time functions return the finished `,"time":…` fragment so the write path only concatenates.

export type TimeFn = () => string

export const epochTime: TimeFn = () => ',"time":' + Date.now()
export const unixTime: TimeFn = () => ',"time":' + Math.round(Date.now() / 1000)
export const nullTime: TimeFn = () => ''
export const isoTime: TimeFn = () => ',"time":"' + new Date().toISOString() + '"'

export const stdTimeFunctions = { epochTime, unixTime, nullTime, isoTime }
