@_exported import FetchPredictorCore
