@_exported import FetchPredictorCore
@_exported import FetchPredictorImport
