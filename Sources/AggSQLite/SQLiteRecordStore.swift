import AggCore
